import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const quoteCancelFields = operationFields('quote', 'cancel', [recordPicker('quote')]);
