import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FileName, UploadPurpose } from '../../contract/document';
import { CreateUploadForm, ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { zodProblem } from '../http/error-handler';
import { ProblemError } from '../http/problem';
import type { IncomingFile } from '../uploads/uploads-service';

interface MultipartUpload {
  file: IncomingFile;
  fields: Record<string, string>;
}

/**
 * Reads a multipart form with exactly one file part named `file`. The size cap is
 * enforced while streaming (413 before the whole body is read).
 */
export async function readMultipartUpload(request: FastifyRequest): Promise<MultipartUpload> {
  if (!request.isMultipart()) {
    throw new ProblemError(415, 'unsupported_media_type', 'Send the file as multipart/form-data with a part named "file".');
  }
  try {
    return await readParts(request);
  } catch (error) {
    throw asFormProblem(error);
  }
}

/**
 * What a failure while reading the form means to the client. A form the parser cannot read
 * (a boundary the body does not use, none at all, a body cut short) is the client's error:
 * busboy says so only in its message, with no status, which would otherwise answer 500.
 * Problems and errors that carry a client status (413 for a file over the cap) pass as they are.
 */
function asFormProblem(error: unknown): unknown {
  if (error instanceof ProblemError) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  const reason = error instanceof Error && error.message ? ` (${error.message})` : '';
  return new ProblemError(400, 'invalid_request', `The multipart form could not be read${reason}: send it with the boundary its Content-Type names, and whole.`);
}

async function readParts(request: FastifyRequest): Promise<MultipartUpload> {
  const fields: Record<string, string> = {};
  let file: IncomingFile | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        await part.toBuffer();
        throw new ProblemError(400, 'invalid_request', 'Send exactly one file, in a part named "file".');
      }
      const bytes = await part.toBuffer();
      const name = formField('filename', FileName, part.filename || 'document.docx');
      // A name with slashes or controls is replaced; one with a character a Word document cannot hold is refused (422).
      if (name instanceof ProblemError && name.code === 'forbidden_character') throw name;
      file = { fileName: name instanceof ProblemError ? 'document.docx' : name, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  if (!file) throw new ProblemError(400, 'invalid_request', 'The form has no file: send the .docx in a part named "file".');
  return { file, fields };
}

/** One form field read with its contract schema: the value, or the problem naming the field (400, or 422 forbidden_character). */
function formField<T extends z.ZodType<string | undefined>>(name: string, schema: T, value: string): z.infer<T> | ProblemError {
  const parsed = z.object({ [name]: schema }).safeParse({ [name]: value });
  return parsed.success ? (parsed.data[name] as z.infer<T>) : zodProblem(parsed.error, 'form');
}

export function registerUploadRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { uploads } = ctx;

  defineRoute(app, ctx.authenticate, ROUTES.createUpload, async ({ request, auth }) => {
    const { file, fields } = await readMultipartUpload(request);
    const purpose = UploadPurpose.safeParse(fields.purpose ?? 'source_doc');
    if (!purpose.success) {
      throw new ProblemError(400, 'invalid_request', 'purpose must be source_doc or playbook.', { errors: [{ path: 'purpose', message: 'must be source_doc or playbook' }] });
    }
    const reference = fields.clientReferenceId === undefined ? null : formField('clientReferenceId', CreateUploadForm.shape.clientReferenceId, fields.clientReferenceId.trim());
    if (reference instanceof ProblemError) throw reference;
    return uploads.create(auth.orgId, auth.userId, file, purpose.data, reference || null);
  });

  defineRoute(app, ctx.authenticate, ROUTES.listUploads, async ({ auth, query }) => uploads.list(auth.orgId, query));

  defineRoute(app, ctx.authenticate, ROUTES.getUpload, async ({ auth, params }) => uploads.get(auth.orgId, params.uploadId!));

  defineRoute(app, ctx.authenticate, ROUTES.downloadUpload, async ({ auth, params, reply }) => {
    const { row, bytes } = await uploads.download(auth.orgId, params.uploadId!);
    return reply
      .code(200)
      .type(row.mimeType)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.fileName)}`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  defineRoute(app, ctx.authenticate, ROUTES.renameUpload, async ({ auth, params, body }) =>
    uploads.rename(auth.orgId, params.uploadId!, body.fileName));

  defineRoute(app, ctx.authenticate, ROUTES.createVersion, async ({ request, auth, params }) => {
    const { file } = await readMultipartUpload(request);
    const { document, stored } = await uploads.addVersion(auth.orgId, auth.userId, params.uploadId!, file);
    // Untracked edits: checked against the version it was added to, after this answer.
    ctx.untracked.startAfterAnswer(auth.orgId, document.id, params.uploadId!, stored);
    return document;
  });

  defineRoute(app, ctx.authenticate, ROUTES.startWorkingDraft, async ({ auth, params }) =>
    uploads.startWorkingDraft(auth.orgId, auth.userId, params.uploadId!));

  defineRoute(app, ctx.authenticate, ROUTES.deleteSeries, async ({ auth, params }) => uploads.deleteSeries(auth.orgId, params.uploadId!));
  defineRoute(app, ctx.authenticate, ROUTES.deleteSeriesAlias, async ({ auth, params }) => uploads.deleteSeries(auth.orgId, params.uploadId!));

}
