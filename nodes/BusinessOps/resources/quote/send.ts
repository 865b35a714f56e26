import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const quoteSendFields = operationFields('quote', 'send', [recordPicker('quote')]);
