import { ApiError } from './api-error.js';

/** A request's JSON body (an empty body is `{}`); anything else that is not JSON is a 400. */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'BAD_JSON', 'the request body is not valid JSON.');
  }
}
