// Plain text in any common encoding (see text-decode.ts for how the encoding is decided).
import { ExtractionError } from './extractor.ts';
import { type ExtractContext, type FormatResult, tidyText } from './extract-context.ts';
import { decodeText } from './text-decode.ts';

export async function extractTxt(bytes: Uint8Array, ctx: ExtractContext): Promise<FormatResult> {
  const decoded = decodeText(bytes);
  if (!decoded) {
    throw new ExtractionError(
      'corrupt',
      'The text file contains binary data and could not be read as text in any common encoding.',
    );
  }
  if (decoded.replaced) {
    ctx.warnings.push(
      `${decoded.replaced} invalid byte sequence${decoded.replaced > 1 ? 's were' : ' was'} replaced (the file is UTF-8 with damaged parts).`,
    );
  }
  return { text: tidyText(decoded.text), metadata: { encoding: decoded.encoding } };
}
