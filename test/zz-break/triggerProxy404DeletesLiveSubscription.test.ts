/**
 * Breaker b29d: "checkSubscription: an answer that is not a subscription must never delete anything".
 *
 * checkExists takes any 404 to GET /webhooks/{id} as "the subscription is gone" (isNotFound reads
 * only the status): a proxy's or a load balancer's own 404 page (HTML, not the API's
 * `{ "error": { "code": "not_found" } }`, spec 7) drops the record; create then finds no record,
 * lists /webhooks and DELETEs the live subscription at exactly this trigger's URL as "left behind",
 * then POSTs a new one (new signing secret). The list itself shows the 404 was not the API's word.
 * Expected: a 404 whose body is not the API's not_found error changes nothing: no DELETE.
 * (Not new in f29c: the 404 reading predates it; found while checking the f29c rule.)
 */
import { publishWithWhk1Answered, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

test("GET /webhooks/whk_1 answered by a proxy's 404 page: the live whk_1 is not deleted", async () => {
	const { deletes } = await publishWithWhk1Answered((get) =>
		get.reply(
			404,
			'<html><head><title>404 Not Found</title></head><body><center>nginx</center></body></html>',
			{ 'content-type': 'text/html' },
		),
	);
	// failed before the fix: ['whk_1'] (deleted as "left behind"), then whk_2 created and stored
	expect(deletes).toEqual([]);
});
