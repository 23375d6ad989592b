/**
 * Sprite lifecycle handlers (outer API, docs/wire-reference.md §3): create, list, get, update, delete, upgrade,
 * check, organization and token minting. Shapes come from `http/wire.ts`; errors from the model.
 */
import type { HandlerMap } from '../context.ts';
import { toWireSprite } from '../http/wire.ts';
import { rfc3339 } from '../core/clock.ts';
import { sendApiError } from '../http/errors.ts';
import type { UrlSettings } from '../model/sprites.ts';
import type { components } from '../../../generated/openapi.d.ts';

/** `url_settings` of a create or update request, as the spec describes it. */
type UrlSettingsBody = components['schemas']['UrlSettings'];

function urlSettingsFrom(body: UrlSettingsBody | undefined): UrlSettings | undefined {
  if (!body) return undefined;
  const out: UrlSettings = { auth: body.auth ?? 'sprite' };
  if (body.private_access !== undefined) out.privateAccess = body.private_access;
  return out;
}

/** Handlers of the sprite family, by operationId. */
export const spriteHandlers: HandlerMap = {
  /** `POST /v1/sprites` → 201 sprite (GO needs exactly 201, PY needs `name`; §3.2, §18). */
  async createSprite({ body }, res, { model }) {
    const sprite = await model.create({
      name: body.name,
      urlSettings: urlSettingsFrom(body.url_settings),
      labels: body.labels,
      config: body.config,
      environment: body.environment,
    });
    res.status(201).json(toWireSprite(sprite));
  },

  /** `GET /v1/sprites` (§3.3): full sprite objects, org counters nested (GO) and top-level (PY). */
  listSprites({ query: q }, res, { model }) {
    const page = model.list({ prefix: q.prefix, maxResults: q.max_results, continuationToken: q.continuation_token });
    const counts = model.orgCounts();
    res.json({
      sprites: page.sprites.map(toWireSprite),
      has_more: page.hasMore,
      next_continuation_token: page.nextContinuationToken,
      org: { name: model.deps.organization, ...counts, running_limit: 10, warm_limit: 20 },
      ...counts,
    });
  },

  /** `GET /v1/sprites/{name}` (§3.4). */
  getSprite({ path }, res, { model }) {
    res.json(toWireSprite(model.get(path.name)));
  },

  /** `PUT /v1/sprites/{name}` (§3.5): partial update, 200 with the sprite. */
  updateSprite({ path, body }, res, { model }) {
    const sprite = model.update(path.name, {
      urlSettings: urlSettingsFrom(body.url_settings),
      labels: body.labels,
      clearLabels: body.clear_labels,
    });
    res.json(toWireSprite(sprite));
  },

  /** `DELETE /v1/sprites/{name}` → 204 (§3.6). */
  async deleteSprite({ path }, res, { model }) {
    await model.delete(path.name);
    res.status(204).end();
  },

  /** `POST /v1/sprites/{name}/upgrade` → 204 (§3.7; nothing to upgrade in an emulator). */
  upgradeSprite({ path }, res, { model }) {
    model.get(path.name).touch();
    res.status(204).end();
  },

  /** `GET /v1/sprites/{name}/check` (§3.8; shape as the npm SDK parses it, production UNCONFIRMED). */
  checkSprite({ path }, res, { model, deps }) {
    const s = model.get(path.name);
    res.json({ sprite_name: s.name, sprite_id: s.id, status: 'ok', checked_at: rfc3339(deps.clock.now()), elapsed: 0 });
  },

  /**
   * `POST /v1/sprites/{name}/restart` (npm SDK only): running commands end, the sprite comes back running with
   * its filesystem, services come back from their definitions (like a restore of the live state).
   */
  async restartSprite({ path }, res, { model }) {
    const s = model.get(path.name);
    await s.restart();
    res.json({ sprite_name: s.name, machine_id: s.id.replace(/^sprite-/, ''), message: 'Sprite restarted' });
  },

  /** `GET /v1/organization` (§3.8, shape UNCONFIRMED). */
  getOrganization(_req, res, { model }) {
    res.json({ name: model.deps.organization, slug: model.deps.organization });
  },

  /**
   * `POST /v1/organizations/{org}/tokens` (FlyV1 auth) → 201 `{token}`, accepted from then on as a bearer token
   * for the public API of `{org}` only (§3.9; never for `/_spritzer`, see http/auth.ts). An organization other
   * than the server's (`--org`) is 404 `{"error":"organization not found","message":…}`: a token for it would
   * reach nothing here, so minting one would only mislead the caller. @deviation the real API's answer for an unknown org is UNCONFIRMED.
   */
  createToken({ path }, res, { deps, credentials }) {
    const org = path.org;
    if (org !== deps.organization) {
      return sendApiError(res, 404, { error: 'organization not found', message: `no organization ${org} here: this server serves ${deps.organization} (--org)` });
    }
    res.status(201).json({ token: credentials.mint(deps.ids.token(), org) });
  },
};
