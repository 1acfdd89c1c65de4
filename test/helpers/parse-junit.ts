/** A JUnit report read back: its suites, their cases, and each failing case's message and text. */
export interface JunitReport {
  attributes: Record<string, string>;
  suites: {
    attributes: Record<string, string>;
    cases: { attributes: Record<string, string>; failure?: { message: string; text: string } }[];
  }[];
}

const unescapeXml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

function attributesOf(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:-]+)="([^"]*)"/g))
    found[match[1] ?? ''] = unescapeXml(match[2] ?? '');
  return found;
}

/**
 * A small reader of the JUnit XML `attractor test --reporter junit` writes (elements `testsuites`,
 * `testsuite`, `testcase`, `failure`; attributes in double quotes), strict enough to fail on markup a
 * CI system would reject: an unescaped `<` or `&`, a tag left open.
 */
export function parseJunit(xml: string): JunitReport {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '');
  if (/&(?!(lt|gt|quot|apos|amp);)/.test(body)) throw new Error('unescaped &');
  const root = /^<testsuites([^>]*)>([\s\S]*)<\/testsuites>\s*$/.exec(body);
  if (!root) throw new Error('no <testsuites> root');
  const suites = [...(root[2] ?? '').matchAll(/<testsuite([^>]*)>([\s\S]*?)<\/testsuite>/g)].map((suite) => ({
    attributes: attributesOf(suite[1] ?? ''),
    cases: [...(suite[2] ?? '').matchAll(/<testcase([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((tc) => {
      const failure = /<failure([^>]*)>([\s\S]*?)<\/failure>/.exec(tc[3] ?? '');
      if (/<(?!\/?failure)/.test((tc[3] ?? '').replace(/<failure[^>]*>|<\/failure>/g, '')))
        throw new Error('unescaped < in a failure');
      return {
        attributes: attributesOf(tc[1] ?? ''),
        ...(failure
          ? {
              failure: {
                message: attributesOf(failure[1] ?? '')['message'] ?? '',
                text: unescapeXml(failure[2] ?? ''),
              },
            }
          : {}),
      };
    }),
  }));
  return { attributes: attributesOf(root[1] ?? ''), suites };
}
