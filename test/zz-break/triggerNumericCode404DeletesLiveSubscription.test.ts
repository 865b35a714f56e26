/**
 * Breaker b29e (f29d's isApiNotFound): "the API's own 404" is told apart from a proxy's by the
 * error envelope's `code` being a string other than `http_404`. But readApiError turns any `code`
 * into text (JSON.stringify), so a gateway's JSON 404 in the common `{ "error": { "code": 404,
 * "message": "Not Found" } }` form (a number, not the spec-7 envelope whose code is a string such
 * as `not_found`) reads as code "404": the API's word. checkExists then forgets whk_1, create lists
 * /webhooks, DELETEs the live whk_1 at this trigger's URL as left behind and POSTs whk_2 (a new
 * signing secret). Expected: a 404 whose error code is not a string changes nothing: no DELETE.
 */
import { publishWithWhk1Answered, useFastClockAndLogs } from './liveSubscription';

useFastClockAndLogs();

test("GET /webhooks/whk_1 answered by a gateway's JSON 404 with a numeric code: the live whk_1 is not deleted", async () => {
	const { deletes } = await publishWithWhk1Answered((get) =>
		get.reply(404, { error: { code: 404, message: 'Not Found' } }),
	);
	// failed before the fix: ['whk_1'] (deleted as "left behind"), then whk_2 created and stored
	expect(deletes).toEqual([]);
});
