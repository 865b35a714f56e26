/**
 * What a refused delivery leaves behind where a user can find it without server access: a
 * count and the last refusal's time, status and reason in the trigger's static data
 * (`refusals`, returned with the workflow by n8n's public API), and a warning in n8n's log.
 * While the editor listens for a test event, the refusal also ends the wait with an error
 * that says why (see webhook() in the node).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

export interface RefusalRecord extends IDataObject {
	count: number;
	lastAt: string;
	lastStatus: number;
	lastReason: string;
}

export function recordRefusal(ctx: IWebhookFunctions, status: number, reason: string): RefusalRecord {
	const staticData = ctx.getWorkflowStaticData('node');
	const previous = staticData.refusals as Partial<RefusalRecord> | undefined;
	const record: RefusalRecord = {
		count: (typeof previous?.count === 'number' ? previous.count : 0) + 1,
		lastAt: new Date(Date.now()).toISOString(),
		lastStatus: status,
		lastReason: reason,
	};
	// A new object, so that n8n sees the change and saves it with the workflow.
	staticData.refusals = record;
	ctx.logger.warn(`Business Ops Trigger "${ctx.getNode().name}" refused a delivery with HTTP ${status}: ${reason}`);
	return record;
}
