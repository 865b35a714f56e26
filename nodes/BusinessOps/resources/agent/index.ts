import type { INodeProperties } from 'n8n-workflow';
export const agentDescription: INodeProperties[] = [];
