import fc from 'fast-check'

/**
 * Inputs that have broken servers before: NUL and control characters, lone UTF-16 surrogates,
 * bidi overrides and zero-width characters, prototype keys, SQL and HTML, percent-encoding garbage,
 * numbers JSON can write but JavaScript cannot hold.
 */
export const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\uD800',
  '\uDFFF',
  'x\uD83Dy',
  '\u202Eabc\u202C',
  '\u200B\u200C\u200D\u2060',
  '\uFEFF',
  '\uFFFE\uFFFF',
  'e\u0301\u0301\u0301',
  'Nguyễn Huệ',
  'NGUYEN HUE',
  '😀👍🏽👨‍👩‍👧',
  'ﷺ İ ß ǅ',
  'عربى עברית',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  "' or '1'='1",
  "'; drop table users; --",
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '%ED%A0%80',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '${7*7}{{7*7}}',
  'null',
  'undefined',
  'NaN',
  '-Infinity',
  '1e999',
  '-0',
  '0x10',
  '１２３',
  '\r\n\t',
  '\\',
  '"',
  'a'.repeat(10_000),
]

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...nastyStrings), fc.integer({ min: 2, max: 300 }))
      .map(([s, n]) => s.repeat(n)),
  },
)

/** Number literals as JSON text, including ones JSON.stringify never writes (1e400, 30 digits). */
export const numberText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.integer().map(String),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '123456789012345678901234567890',
    '-0',
    '0.000000000000000000000001',
    '1E+2',
    '9007199254740993',
    '4.9e-324',
    '10.762622',
    '106.660172',
  ),
)

export const keyText = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'email', 'lat', 'image_ids', ''),
  nastyString,
)

/** Any JSON value, written as text so that keys like __proto__ reach the server as sent. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ json: string; leaf: string; arr: string; obj: string }>(
  (tie) => ({
    json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('arr'), tie('obj')),
    leaf: fc.oneof(
      numberText,
      fc.constantFrom('true', 'false', 'null'),
      nastyString.map((s) => JSON.stringify(s)),
    ),
    arr: fc.array(tie('json'), { maxLength: 5 }).map((xs) => `[${xs.join(',')}]`),
    obj: fc
      .array(fc.tuple(keyText, tie('json')), { maxLength: 5 })
      .map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  }),
).json

/** Nesting far past what a recursive parser or validator survives, kept under the 100 kB body limit. */
export const deepJson = fc
  .tuple(fc.integer({ min: 1_000, max: 45_000 }), fc.constantFrom('[]', '{}', 'o'))
  .map(([n, kind]) => {
    if (kind === '[]') return '['.repeat(n) + ']'.repeat(n)
    if (kind === '{}') return '{"a":'.repeat(Math.floor(n / 5)) + '1' + '}'.repeat(Math.floor(n / 5))
    return '{"__proto__":'.repeat(Math.floor(n / 13)) + '{}' + '}'.repeat(Math.floor(n / 13))
  })

/** A JSON object with the endpoint's own field names, each holding something hostile or plausible. */
export function objectWith(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const entries = Object.entries(fields).map(([name, plausible]) =>
    fc
      .option(
        fc.oneof(
          plausible,
          jsonText,
          nastyString.map((s) => JSON.stringify(s)),
          numberText,
        ),
        { nil: undefined },
      )
      .map((v) => (v === undefined ? '' : `${JSON.stringify(name)}:${v}`)),
  )
  return fc
    .tuple(fc.tuple(...entries), fc.array(fc.tuple(keyText, jsonText), { maxLength: 2 }))
    .map(
      ([own, extra]) =>
        `{${[...own.filter(Boolean), ...extra.map(([k, v]) => `${JSON.stringify(k)}:${v}`)].join(',')}}`,
    )
}

/** Raw bodies that are not JSON at all, or JSON cut short, or invalid UTF-8. */
export const brokenBody = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"email":',
    '[1,2',
    'nul',
    '{"a":1}}',
    '\uFEFF{}',
    "{'a':1}",
    '{"a":1,}',
    '{"a" 1}',
    'undefined',
    '0x1f',
    '\u0000',
  ),
  fc.uint8Array({ maxLength: 200 }),
  jsonText.map((s) => s.slice(0, Math.max(0, s.length - 1))),
)

export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
  'application/json; charset=utf-8; boundary="x"; boundary="y"',
  'application/json;;;',
)

export type Body = string | Uint8Array

/** A body for a JSON endpoint: mostly JSON shaped like its input, sometimes anything at all. */
export function jsonBodies(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<{ type: string; body: Body }> {
  return fc.oneof(
    { weight: 5, arbitrary: objectWith(fields).map((body) => ({ type: 'application/json', body })) },
    { weight: 2, arbitrary: jsonText.map((body) => ({ type: 'application/json', body })) },
    { weight: 1, arbitrary: deepJson.map((body) => ({ type: 'application/json', body })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(contentType, fc.oneof(brokenBody, objectWith(fields)))
        .map(([type, body]) => ({ type, body })),
    },
  )
}

/** Percent-encodes where JavaScript can, and leaves the hostile raw forms (%zz, lone surrogates as bytes) in. */
export function encode(s: string): string {
  try {
    return encodeURIComponent(s)
  } catch {
    return '%ED%A0%80'
  }
}

/** A query string of known and unknown keys, repeated keys, raw percent garbage and huge values. */
export function queryString(keys: string[], plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const value = fc.oneof(
    plausible.map(encode),
    nastyString.map(encode),
    numberText.map(encode),
    fc.constantFrom('%', '%zz', '%C0%AF', '%00', '%ED%A0%80', '+', '&&', '=', ''),
  )
  const pair = fc
    .tuple(fc.oneof(fc.constantFrom(...keys), keyText.map(encode)), value, fc.boolean())
    .map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`))
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'))
}

/** Header values a client can really send: printable Latin-1, no CR, LF or NUL. */
export const headerValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) =>
    [...s]
      .map((ch) => String.fromCharCode(0x20 + ((ch.codePointAt(0) ?? 0) % 0x5f)))
      .join('')
      .trim(),
  ),
  fc.constantFrom('', '%00', '__proto__', 'x'.repeat(8_000), "' or 1=1 --", 'Ã©Ã¼'),
)

/** Authorization headers from absent to absurd; `live` is a real token so its neighbours get tried too. */
export function authorization(live: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    fc.constant(undefined),
    fc.constant(`Bearer ${live}`),
    fc.constantFrom(
      'Bearer',
      'Bearer ',
      'bearer',
      'Basic dXNlcjpwYXNz',
      'Bearer null',
      'Bearer undefined',
      `Bearer ${live} extra`,
      `Bearer  ${live}`,
      `bearer ${live}`,
      `Bearer ${live.slice(1)}`,
      `Bearer ${live}A`,
      `Bearer ${'A'.repeat(43)}`,
      `Bearer ${'x'.repeat(60_000)}`,
      `Token ${live}`,
    ),
    headerValue.map((v) => `Bearer ${v}`),
    headerValue,
  )
}
