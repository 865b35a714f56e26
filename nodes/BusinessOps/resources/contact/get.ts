import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const contactGetFields = operationFields('contact', 'get', [recordPicker('contact')]);
