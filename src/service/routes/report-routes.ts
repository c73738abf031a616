import type { FastifyInstance } from 'fastify';
import { REPORT_CSV_MEDIA_TYPE, REPORT_PDF_MEDIA_TYPE } from '../../contract/report';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { buildDecisionReport, reportFileName, reportFindings, type DecisionReport } from '../report/decision-report';
import { reportCsv } from '../report/report-csv';

/** The decision report of a draft, as PDF and as CSV (issue 14). */
export function registerReportRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { review, db } = ctx;
  // The checks' findings still standing (issue 35), computed on an engine thread when not kept already.
  const withFindings = async (report: DecisionReport, documentId: string, auth: { orgId: string; userId: string }): Promise<DecisionReport> =>
    ({ ...report, findings: reportFindings((await ctx.checks.checks(auth, documentId, 'accepted')).findings) });

  defineRoute(app, ctx.authenticate, ROUTES.decisionReportPdf, async ({ auth, params, reply, timing }) => {
    const report = await withFindings(await buildDecisionReport(db, await review.decisionRecord(auth, params.documentId!, timing)), params.documentId!, auth);
    // Rendered on an engine thread: a long report's layout and font subsets take a second of CPU.
    const pdf = await timing.measure('pdf', () => ctx.engineThreads.reportPdf(report, { orgId: auth.orgId }));
    return reply.code(200).type(REPORT_PDF_MEDIA_TYPE)
      .header('content-disposition', attachment(reportFileName(report.documentName, 'pdf')))
      .header('cache-control', 'private, no-store')
      .header('server-timing', timing.header())
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  defineRoute(app, ctx.authenticate, ROUTES.decisionReportCsv, async ({ auth, params, reply, timing }) => {
    const report = await withFindings(await buildDecisionReport(db, await review.decisionRecord(auth, params.documentId!, timing)), params.documentId!, auth);
    return reply.code(200).type(REPORT_CSV_MEDIA_TYPE)
      .header('content-disposition', attachment(reportFileName(report.documentName, 'csv')))
      .header('cache-control', 'private, no-store')
      .send(reportCsv(report));
  });
}

function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
