import { ApiError } from './api-client.js';

/** The error's own words (the server's, or that it could not be reached), else `fallback`. */
export function serverWords(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** `fallback` unless the server answered with words of its own. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status !== null && error.message ? error.message : fallback;
}
