import type { RouteName } from '../../src/contract/routes';
import { buildDemoContract } from '../../src/docx/fixture';
import { multipartBody } from './test-service';

/**
 * A request the caller could legitimately send to a route of the catalogue (a valid body
 * for the ids given), so only the credential or ownership check can refuse it.
 */
export function validRequest(name: RouteName, headers: Record<string, string>, ids: Record<string, string>): { headers: Record<string, string>; payload?: string | object | Buffer } {
  const docx = buildDemoContract();
  switch (name) {
    case 'renameUpload': return { headers, payload: { fileName: 'Renamed.docx' } };
    case 'applyRevisions': return { headers, payload: { accepted_change_ids: ['c1'] } };
    case 'writeRedlines': return { headers, payload: { edits: [{ op: 'delete', find: 'Agreement' }] } };
    case 'noteDecision': return { headers, payload: { note: 'Why' } };
    case 'proposeCheckFixes': return { headers, payload: {} };
    case 'addComment': return { headers, payload: { anchor: { find: 'Agreement' }, text: 'Mine' } };
    case 'replyToComment': return { headers, payload: { text: 'Reply' } };
    case 'resolveComment': return { headers, payload: { resolved: true } };
    case 'createApiKey': return { headers, payload: { name: 'Another key' } };
    case 'inviteMember': return { headers, payload: { email: 'invited@example.com', role: 'member' } };
    case 'connectorConsent': return { headers, payload: { interaction: ids.interaction ?? 'none', approve: true } };
    case 'compareVersions': return { headers, payload: { against: ids.documentId } };
    case 'createUpload': {
      const body = multipartBody({ purpose: 'source_doc' }, { name: 'new.docx', bytes: docx });
      return { headers: { ...headers, ...body.headers }, payload: body.payload };
    }
    case 'createVersion': {
      const body = multipartBody({}, { name: 'v2.docx', bytes: docx });
      return { headers: { ...headers, ...body.headers }, payload: body.payload };
    }
    case 'saveDraft':
      return { headers: { ...headers, 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, payload: Buffer.from(docx) };
    case 'mcpPost':
      return { headers: { ...headers, accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } };
    default: return { headers };
  }
}
