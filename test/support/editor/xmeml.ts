import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';

/**
 * Reads a Final Cut Pro 7 XML (xmeml, version 4) back as Premiere and Resolve import it: a sequence
 * with its rate (timebase, ntsc) and start timecode, video and audio tracks of clipitems, each with
 * its record start/end, source in/out, a file (defined once, then referred to by id) with its
 * pathurl, and markers (in/out in source frames, out -1 for a point).
 */
const bool = z.enum(['TRUE', 'FALSE']);
const rate = z.object({ timebase: z.number().int().positive(), ntsc: bool });
const marker = z.object({
  name: z.union([z.string(), z.number()]),
  comment: z.unknown().optional(),
  in: z.number().int(),
  out: z.literal(-1),
});
const samples = z
  .object({ rate: rate.optional(), width: z.number().int(), height: z.number().int() })
  .passthrough();
const file = z
  .object({
    '@_id': z.string(),
    name: z.union([z.string(), z.number()]).optional(),
    pathurl: z.string().optional(),
    rate: rate.optional(),
    duration: z.number().int().optional(),
    media: z
      .object({
        video: z.unknown().optional(),
        audio: z.object({ channelcount: z.number().int() }).passthrough().optional(),
      })
      .optional(),
  })
  .passthrough();
const clipitem = z
  .object({
    '@_id': z.string(),
    name: z.union([z.string(), z.number()]),
    rate,
    start: z.number().int(),
    end: z.number().int(),
    in: z.number().int(),
    out: z.number().int(),
    file,
    sourcetrack: z.object({ mediatype: z.enum(['video', 'audio']), trackindex: z.number().int().optional() }),
    marker: z.array(marker).default([]),
  })
  .passthrough();
const track = z.object({ clipitem: z.array(clipitem).default([]) }).passthrough();
export const xmeml = z.object({
  xmeml: z.object({
    '@_version': z.literal('4'),
    sequence: z.object({
      name: z.union([z.string(), z.number()]),
      duration: z.number().int(),
      rate,
      timecode: z.object({
        rate,
        string: z.string(),
        frame: z.number().int(),
        displayformat: z.enum(['DF', 'NDF']),
      }),
      media: z.object({
        video: z.object({ format: z.object({ samplecharacteristics: samples }), track: z.array(track) }),
        audio: z
          .object({ track: z.array(track).default([]) })
          .passthrough()
          .optional(),
      }),
    }),
  }),
});
export type Xmeml = z.infer<typeof xmeml>;

const ARRAYS = new Set(['track', 'clipitem', 'marker']);

export function readXmeml(text: string): Xmeml {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} at line ${valid.err.line}`);
  if (!/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<!DOCTYPE xmeml>/.test(text))
    throw new Error('an xmeml file starts with the XML declaration and <!DOCTYPE xmeml>');
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: true,
    isArray: (name) => ARRAYS.has(name),
  });
  return xmeml.parse(parser.parse(text));
}
