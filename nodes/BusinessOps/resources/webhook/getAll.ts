import { operationFields } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';

export const webhookGetAllFields = operationFields('webhook', 'getAll', getManyFields());
