import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const agentGetAutonomyFields: INodeProperties[] = operationFields('agent', 'getAutonomy', [recordPicker('agent')]);
