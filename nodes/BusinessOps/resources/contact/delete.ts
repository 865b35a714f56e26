import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const contactDeleteFields = operationFields('contact', 'delete', [recordPicker('contact')]);
