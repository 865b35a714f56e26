import { operationFields } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';

export const contactGetAllFields = operationFields('contact', 'getAll', getManyFields());
