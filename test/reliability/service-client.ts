import { createHash } from 'node:crypto';
import type { SessionGrant } from '../../src/contract/auth';
import type { DocumentRow } from '../../src/contract/document';
import { ReviewResponse } from '../../src/contract/review';

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** A thin HTTP client for one signed-in user of a running service (real sockets, real fetch). */
export class ServiceClient {
  constructor(
    readonly url: string,
    readonly grant: SessionGrant,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.grant.session_token}`, 'x-org-id': this.grant.orgId, ...extra };
  }

  async call(method: string, route: string, body?: object, timeoutMs = 60_000): Promise<HttpAnswer> {
    const res = await fetch(`${this.url}/api${route}`, {
      method,
      headers: this.headers(body ? { 'content-type': 'application/json' } : {}),
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return answerOf(res);
  }

  async upload(fileName: string, bytes: Uint8Array, type = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', timeoutMs = 60_000): Promise<HttpAnswer> {
    const form = new FormData();
    form.set('purpose', 'source_doc');
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), fileName);
    const res = await fetch(`${this.url}/api/uploads`, { method: 'POST', headers: this.headers(), body: form, signal: AbortSignal.timeout(timeoutMs) });
    return answerOf(res);
  }

  async review(id: string): Promise<ReviewResponse> {
    const answer = await this.call('GET', `/documents/${id}/review`);
    if (answer.status !== 200) throw new Error(`review answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return ReviewResponse.parse(answer.body);
  }

  /** Uploads a .docx and starts a working draft from it; answers the draft row. */
  async newDraft(fileName: string, bytes: Uint8Array): Promise<DocumentRow> {
    const created = await this.upload(fileName, bytes);
    if (created.status !== 201) throw new Error(`upload answered ${created.status}: ${JSON.stringify(created.body)}`);
    const draft = await this.call('POST', `/uploads/${(created.body as DocumentRow).id}/working-draft`);
    if (draft.status !== 201) throw new Error(`working-draft answered ${draft.status}: ${JSON.stringify(draft.body)}`);
    return draft.body as DocumentRow;
  }

  async downloadSha(id: string): Promise<{ status: number; sha256: string | null }> {
    const res = await fetch(`${this.url}/api/uploads/${id}/content`, { headers: this.headers(), signal: AbortSignal.timeout(60_000) });
    if (res.status !== 200) {
      await res.body?.cancel();
      return { status: res.status, sha256: null };
    }
    return { status: 200, sha256: sha256Hex(new Uint8Array(await res.arrayBuffer())) };
  }
}

/** The status and the body: parsed JSON, or the text when it is not JSON (a download). */
async function answerOf(res: Response): Promise<HttpAnswer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}
