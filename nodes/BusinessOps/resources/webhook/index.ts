import type { INodeProperties } from 'n8n-workflow';
export const webhookDescription: INodeProperties[] = [];
