/**
 * Tenant isolation of the library: another user gets 404 (never 403) for every template, spreadsheet,
 * image and font route on the owner's ids, can copy, share, export or delete none of it, and the
 * owner's data is unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateDetail } from '@sheaf/shared';
import { forEachDatabase, startTestServer } from './harness.ts';
import { csv, fixture, makePdf, placeholder } from './library-support.ts';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;
type User = Awaited<ReturnType<TestServer['signUp']>>;

forEachDatabase((database) => {
  describe('library isolation', () => {
    let server: TestServer;
    let owner: User;
    let intruder: User;
    let templateId: string;
    let intruderTemplateId: string;

    /** Everything the owner can see of their library, to compare before and after. */
    async function ownerState() {
      const get = async (path: string) => {
        const response = await server.inject('GET', path, { token: owner.token });
        expect(response.status, `${path}: ${JSON.stringify(response.json)}`).toBe(200);
        return response;
      };
      const detail = (await get(`/templates/${templateId}`)).json as TemplateDetail;
      return {
        detail: { ...detail, thumbnailUrl: null },
        pdf: Buffer.from((await get(`/templates/${templateId}/download`)).body).toString('base64'),
        sheet: (await get(`/templates/${templateId}/excel`)).json,
        fonts: (await get('/fonts')).json,
        list: ((await get('/templates')).json as { templates: Array<{ id: string }> }).templates.map((entry) => entry.id),
      };
    }

    beforeAll(async () => {
      server = await startTestServer({ database });
      owner = await server.signUp();
      intruder = await server.signUp();
      const token = owner.token;
      const created = await server.inject('POST', '/templates', { token, file: { name: 'Private.pdf', bytes: await makePdf(), type: 'application/pdf' } });
      templateId = (created.json as TemplateDetail).id;
      await server.inject('PATCH', `/templates/${templateId}/placeholders`, { token, body: { placeholders: [placeholder('Name')] } });
      await server.inject('POST', `/templates/${templateId}/excel`, { token, file: { name: 'people.csv', bytes: csv([['Name'], ['Ann']]), type: 'text/csv' } });
      await server.inject('POST', `/templates/${templateId}/images`, { token, file: { name: 'logo.png', bytes: await fixture('image.png'), type: 'image/png' } });
      await server.inject('POST', '/fonts', { token, file: { name: 'DejaVuSerif.ttf', bytes: await fixture('cli/fonts/DejaVuSerif.ttf'), type: 'font/ttf' } });
      const theirs = await server.inject('POST', '/templates', { token: intruder.token, file: { name: 'Mine.pdf', bytes: await makePdf(), type: 'application/pdf' } });
      intruderTemplateId = (theirs.json as TemplateDetail).id;
    });
    afterAll(async () => {
      await server.close();
    });

    it('answers 404 to another user on every route of the owner\'s template, spreadsheet, images and fonts', async () => {
      const before = await ownerState();
      const id = templateId;
      const pdf = { name: 'x.pdf', bytes: await makePdf(), type: 'application/pdf' };
      const attempts: Array<[string, string, Parameters<TestServer['inject']>[2], string]> = [
        ['GET', `/templates/${id}`, {}, 'template/not-found'],
        ['GET', `/templates/${id}/download`, {}, 'template/not-found'],
        ['PUT', `/templates/${id}/file`, { file: pdf }, 'template/not-found'],
        ['GET', `/templates/${id}/thumbnail`, {}, 'template/not-found'],
        ['PATCH', `/templates/${id}`, { body: { customName: 'Stolen', headersRowNo: 2 } }, 'template/not-found'],
        ['PATCH', `/templates/${id}/placeholders`, { body: { placeholders: [], forceDeleteAllPlaceholders: true } }, 'template/not-found'],
        ['PATCH', `/templates/${id}/splitButtonSelection`, { body: { splitButtonSelection: 'zip' } }, 'template/not-found'],
        ['POST', `/templates/${id}/decrypt`, { body: { password: 'x' } }, 'template/not-found'],
        ['POST', `/templates/${id}/copy`, {}, 'template/not-found'],
        ['POST', `/templates/${id}/share`, { body: { email: intruder.email } }, 'template/not-found'],
        ['GET', `/templates/${id}/export`, {}, 'template/not-found'],
        ['POST', `/templates/${id}/preview`, { body: { placeholders: [placeholder('Name')], startRow: 2, endRow: 2 } }, 'template/not-found'],
        ['POST', `/templates/${id}/images`, { file: { name: 'logo.png', bytes: await fixture('image.png'), type: 'image/png' } }, 'template/not-found'],
        ['DELETE', `/templates/${id}/images/logo.png`, {}, 'template/not-found'],
        ['GET', `/templates/${id}/excel`, {}, 'template/not-found'],
        ['POST', `/templates/${id}/excel`, { file: { name: 'evil.csv', bytes: csv([['Name'], ['Eve']]), type: 'text/csv' } }, 'template/not-found'],
        ['POST', `/templates/${id}/excel/copy`, { body: { sourceTemplateId: intruderTemplateId } }, 'template/not-found'],
        ['POST', `/templates/${intruderTemplateId}/excel/copy`, { body: { sourceTemplateId: id } }, 'template/not-found'],
        ['DELETE', `/templates/${id}/excel`, {}, 'template/not-found'],
        ['GET', `/fonts/${encodeURIComponent('DejaVu Serif')}/file`, {}, 'font/not-found'],
        ['DELETE', `/fonts/${encodeURIComponent('DejaVu Serif')}`, {}, 'font/not-found'],
        ['DELETE', `/templates/${id}`, {}, 'template/not-found'],
      ];
      for (const [method, path, options, code] of attempts) {
        const response = await server.inject(method as 'GET', path, { ...options, token: intruder.token });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.json, `${method} ${path}`).toMatchObject({ code });
      }

      // Nothing of the owner's shows up in the intruder's lists.
      const lists = await Promise.all(['/templates', '/spreadsheets', '/fonts'].map((path) => server.inject('GET', path, { token: intruder.token })));
      expect(JSON.stringify(lists.map((response) => response.json))).not.toContain(templateId);
      expect(lists[0]!.json).toMatchObject({ templates: [{ id: intruderTemplateId }] });
      expect(lists[1]!.json).toEqual({ spreadsheets: [] });
      expect(lists[2]!.json).toEqual({ fonts: [] });

      expect(await ownerState()).toEqual(before);
      const theirs = (await server.inject('GET', `/templates/${intruderTemplateId}`, { token: intruder.token })).json as TemplateDetail;
      expect(theirs.excel).toBeNull();
    });
  });
});
