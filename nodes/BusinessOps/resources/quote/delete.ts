import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const quoteDeleteFields = operationFields('quote', 'delete', [recordPicker('quote')]);
