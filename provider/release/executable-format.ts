/**
 * What a release checks in each single executable before archiving it, since only this
 * platform's can be run here: the file is an executable of the platform's format and
 * architecture (ELF, Mach-O or PE), it holds the injected blob byte for byte, postject flipped
 * the fuse that makes Node.js run it, and a Mach-O file carries an ad-hoc code signature whose
 * page hashes match every byte before it (macOS kills a process whose signature does not).
 */
import { createHash } from "node:crypto";
import { ReleaseToolError } from "./errors";

/** The fuse postject flips in a Node.js binary to make it run its injected blob. */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

interface ExpectedFormat {
  readonly format: "ELF" | "Mach-O" | "PE";
  /** e_machine, cputype or the PE machine field. */
  readonly machine: number;
  readonly architecture: string;
}

const expectedFormats: Readonly<Record<string, ExpectedFormat>> = {
  "linux-amd64": { format: "ELF", machine: 0x3e, architecture: "x86-64" },
  "linux-arm64": { format: "ELF", machine: 0xb7, architecture: "AArch64" },
  "darwin-amd64": { format: "Mach-O", machine: 0x01000007, architecture: "x86_64" },
  "darwin-arm64": { format: "Mach-O", machine: 0x0100000c, architecture: "arm64" },
  "windows-amd64": { format: "PE", machine: 0x8664, architecture: "AMD64" },
};

export interface ExecutableFacts {
  readonly format: string;
  readonly architecture: string;
  /** Whether the fuse that makes Node.js run the injected blob is set. */
  readonly fuse: boolean;
  /** Mach-O only: the ad-hoc signature's identifier, its pages all verified. */
  readonly signedAs?: string;
  /** PE only: whether it still has an Authenticode signature (a certificate table). */
  readonly authenticode?: boolean;
}

function formatAndMachine(file: Buffer): { format: string; machine: number } {
  if (file.readUInt32BE(0) === 0x7f454c46) return { format: "ELF", machine: file.readUInt16LE(18) };
  if (file.readUInt32LE(0) === 0xfeedfacf)
    return { format: "Mach-O", machine: file.readUInt32LE(4) };
  if (file.readUInt16LE(0) === 0x5a4d) {
    const pe = file.readUInt32LE(0x3c);
    if (file.readUInt32LE(pe) === 0x00004550)
      return { format: "PE", machine: file.readUInt16LE(pe + 4) };
  }
  return { format: "unknown", machine: -1 };
}

/** The size of a PE32+ file's certificate table (data directory 4): its Authenticode signature. */
function peCertificateTableSize(file: Buffer): number {
  const optionalHeader = file.readUInt32LE(0x3c) + 24;
  return file.readUInt32LE(optionalHeader + 112 + 4 * 8 + 4);
}

const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const CS_HASHTYPE_SHA256 = 2;

/**
 * The identifier of a 64-bit Mach-O file's ad-hoc signature, after checking that its
 * CodeDirectory hashes every page of the file up to the signature (sha256) and that they match.
 */
function verifiedAdHocSignature(file: Buffer): string {
  const commands = file.readUInt32LE(16);
  let offset = 32;
  let signature: { dataoff: number; datasize: number } | undefined;
  for (let i = 0; i < commands; i++) {
    const cmd = file.readUInt32LE(offset);
    if (cmd === LC_CODE_SIGNATURE) {
      signature = {
        dataoff: file.readUInt32LE(offset + 8),
        datasize: file.readUInt32LE(offset + 12),
      };
    }
    offset += file.readUInt32LE(offset + 4);
  }
  if (signature === undefined)
    throw new ReleaseToolError("single executable", "it has no code signature (LC_CODE_SIGNATURE)");
  const blob = file.subarray(signature.dataoff, signature.dataoff + signature.datasize);
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) {
    throw new ReleaseToolError(
      "single executable",
      "its code signature is not an embedded signature superblob",
    );
  }
  const count = blob.readUInt32BE(8);
  for (let i = 0; i < count; i++) {
    const at = blob.readUInt32BE(12 + i * 8 + 4);
    if (blob.readUInt32BE(at) !== CSMAGIC_CODEDIRECTORY) continue;
    const directory = blob.subarray(at);
    const flags = directory.readUInt32BE(12);
    const hashOffset = directory.readUInt32BE(16);
    const identOffset = directory.readUInt32BE(20);
    const codeSlots = directory.readUInt32BE(28);
    const codeLimit = directory.readUInt32BE(32);
    const hashSize = directory.readUInt8(36);
    const hashType = directory.readUInt8(37);
    const pageSize = 2 ** directory.readUInt8(39);
    const identifier = directory.toString("latin1", identOffset, directory.indexOf(0, identOffset));
    if ((flags & CS_ADHOC) === 0)
      throw new ReleaseToolError("single executable", "its code signature is not ad-hoc");
    if (hashType !== CS_HASHTYPE_SHA256 || hashSize !== 32) {
      throw new ReleaseToolError(
        "single executable",
        `its code directory uses hash type ${hashType}, not sha256`,
      );
    }
    if (codeLimit !== signature.dataoff || codeSlots !== Math.ceil(codeLimit / pageSize)) {
      throw new ReleaseToolError(
        "single executable",
        "its code signature does not cover every byte before it",
      );
    }
    for (let slot = 0; slot < codeSlots; slot++) {
      const page = file.subarray(slot * pageSize, Math.min((slot + 1) * pageSize, codeLimit));
      const expected = directory.subarray(hashOffset + slot * 32, hashOffset + (slot + 1) * 32);
      if (!createHash("sha256").update(page).digest().equals(expected)) {
        throw new ReleaseToolError(
          "single executable",
          `page ${slot} does not match its code signature`,
        );
      }
    }
    return identifier;
  }
  throw new ReleaseToolError("single executable", "its code signature has no code directory");
}

/**
 * What `file` is, read as the executable for `platform`: throws when its format or architecture
 * is another platform's, or when a Mach-O file's signature is missing or does not match.
 */
export function checkedFormat(file: Buffer, platform: string): ExecutableFacts {
  const expected = expectedFormats[platform];
  if (expected === undefined)
    throw new ReleaseToolError("single executable", `no executable format known for ${platform}`);
  const found = formatAndMachine(file);
  if (found.format !== expected.format || found.machine !== expected.machine) {
    throw new ReleaseToolError(
      "single executable",
      `it is ${found.format} for machine 0x${found.machine.toString(16)}, not ${expected.format} for ${expected.architecture}`,
    );
  }
  const facts = {
    format: expected.format,
    architecture: expected.architecture,
    fuse: file.indexOf(`${SEA_FUSE}:1`) >= 0,
  };
  if (expected.format === "PE")
    return { ...facts, authenticode: peCertificateTableSize(file) !== 0 };
  if (expected.format === "Mach-O") return { ...facts, signedAs: verifiedAdHocSignature(file) };
  return facts;
}

/**
 * Checks `file` as the single executable for `platform` holding `blob`; throws saying what is
 * wrong. Returns what was verified.
 */
export function checkSingleExecutable(
  file: Buffer,
  platform: string,
  blob: Buffer,
): ExecutableFacts {
  const problem = (what: string) =>
    new ReleaseToolError(
      "single executable",
      `the single executable for ${platform} is not usable: ${what}`,
    );
  let facts: ExecutableFacts;
  try {
    facts = checkedFormat(file, platform);
  } catch (error) {
    throw problem((error as Error).message);
  }
  if (file.indexOf(blob) < 0) throw problem("the bundle's blob is not in it");
  if (!facts.fuse) throw problem("its single-executable fuse is not set");
  if (facts.authenticode) {
    throw problem("it still carries Node.js's Authenticode signature, which no longer matches");
  }
  return facts;
}
