import { simplifyField } from '../../shared/getMany';
import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';
import { QUOTE_SIMPLE_KEYS } from './getAll';

export const quoteGetFields = operationFields('quote', 'get', [recordPicker('quote'), simplifyField(QUOTE_SIMPLE_KEYS)]);
