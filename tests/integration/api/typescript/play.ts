// A phone's first move through openapi-fetch with the types openapi-typescript generates from
// /api/schema/ (schema.d.ts, written by test_generated_client.py beside a copy of this file), type-checked
// by tsc --strict: a field this code reads that leaves the schema fails the check.
import createClient from "openapi-fetch";
import type { paths } from "./schema";

export async function firstMove(baseUrl: string, session: number, seat: number, token: string): Promise<number | string> {
  const phone = createClient<paths>({ baseUrl });
  const params = { path: { session_id: session, seat_index: seat }, header: { "X-Seat-Token": token } };
  const offered = await phone.GET("/api/sessions/{session_id}/seats/{seat_index}/actions/", { params });
  if (offered.error) return `${offered.error.code}: ${offered.error.message}`;
  const choice = offered.data.choices[0].choice;
  const answer = await phone.POST("/api/sessions/{session_id}/seats/{seat_index}/actions/submit/", {
    params: { ...params, header: { ...params.header, "Idempotency-Key": crypto.randomUUID() } },
    body: { action: { type: choice.type, seat: choice.seat }, expected_version: offered.data.version },
  });
  if (answer.error) return `${answer.error.code}: ${answer.error.message}`;
  return answer.data.view.version;
}
