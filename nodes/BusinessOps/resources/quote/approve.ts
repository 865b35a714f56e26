import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const quoteApproveFields = operationFields('quote', 'approve', [recordPicker('quote')]);
