import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const requestGetFields = operationFields('request', 'get', [recordPicker('request')]);
