import type { FastifyInstance } from 'fastify';
import { stringifyInSlices } from './json-in-slices';

/** The answer's text, written already by the preSerialization hook below. */
const writtenAlready = (text: unknown): string => text as string;

/**
 * Every JSON answer is written in slices (json-in-slices.ts) instead of by Fastify's one
 * JSON.stringify: a review answer, a track or a listing of thousands of entries is megabytes of
 * JSON, and writing it in one go held the thread (and `/api/health/live` with it) for tens of
 * milliseconds. The text is the same, so content type, ETag, Server-Timing and compression (an
 * onSend hook, after this) see what they saw before. Installed before the routes, so every route
 * has it; a route with a response schema keeps Fastify's own serializer.
 */
export function installSlicedJsonAnswers(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (request.routeOptions.schema?.response) return payload;
    const text = await stringifyInSlices(payload);
    if (text === undefined) return payload;
    reply.serializer(writtenAlready);
    return text;
  });
}
