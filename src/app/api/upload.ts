import { DocumentRow } from '../../contract/document';
import type { RouteSpec } from '../../contract/routes';
import { ApiError, apiUrl, authHeaders, errorFromResponse } from './client';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Sends a multipart form with XMLHttpRequest rather than fetch: only XHR reports upload
 * progress, and a contract can be tens of megabytes on a slow office line.
 */
export function uploadForm(
  spec: RouteSpec,
  params: Record<string, string>,
  form: FormData,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<DocumentRow> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(spec.method, apiUrl(spec, { params }));
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(DocumentRow.parse(JSON.parse(xhr.responseText)));
        } catch {
          reject(new ApiError(xhr.status, null, 'The service sent an answer this app does not understand.'));
        }
        return;
      }
      void errorFromResponse(spec, xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')).then(reject);
    };
    xhr.onerror = () => reject(new ApiError(0, null, 'The upload failed: the service could not be reached.'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
