import { z } from 'zod';

/**
 * A chain's RPC endpoints as configured (docs/chains.md): a comma-separated list of http(s) URLs,
 * at least one, in order of preference. Items are named by position, never quoted: an RPC URL may
 * carry an API key in its path or query.
 */
export const rpcUrlList = z.string().transform((text, ctx) => {
  const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  items.forEach((item, i) => {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(item).protocol);
    } catch {
      ok = false;
    }
    if (!ok) ctx.addIssue({ code: 'custom', message: `item ${i + 1} is not an http(s) URL` });
  });
  if (items.length === 0) ctx.addIssue({ code: 'custom', message: 'must list at least one http(s) URL' });
  return items;
});
