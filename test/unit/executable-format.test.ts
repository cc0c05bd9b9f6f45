/**
 * The release's check of each single executable (provider/release/executable-format.ts), on
 * small built files: the right format and architecture pass, another platform's, a missing blob,
 * an unset fuse, a stale Authenticode signature and a Mach-O page that no longer matches its
 * signature fail, each saying so. The real executables are checked by test/release.
 */
import { createHash } from "node:crypto";
import { ReleaseToolError } from "../../provider/release/errors";
import { checkSingleExecutable, SEA_FUSE } from "../../provider/release/executable-format";
import { thrownBy } from "../support/thrown";

const BLOB = Buffer.from("the injected blob");
const PAGE = 4096;

/** The first page's payload: the fuse (set or not) and the blob. */
function payload(fuse = "1"): Buffer {
  return Buffer.concat([Buffer.from(`${SEA_FUSE}:${fuse}`), BLOB]);
}

function elf(machine: number, body = payload()): Buffer {
  const file = Buffer.alloc(PAGE);
  file.writeUInt32BE(0x7f454c46, 0);
  file.writeUInt16LE(machine, 18);
  body.copy(file, 64);
  return file;
}

function pe(certificateTableSize: number): Buffer {
  const file = Buffer.alloc(PAGE);
  file.writeUInt16LE(0x5a4d, 0);
  file.writeUInt32LE(0x80, 0x3c);
  file.writeUInt32LE(0x00004550, 0x80);
  file.writeUInt16LE(0x8664, 0x84);
  file.writeUInt32LE(certificateTableSize, 0x80 + 24 + 112 + 4 * 8 + 4);
  payload().copy(file, 0x400);
  return file;
}

/** A one-page x86_64 Mach-O with an ad-hoc signature over that page, as macho-sign makes. */
function signedMachO(): Buffer {
  const code = Buffer.alloc(PAGE);
  code.writeUInt32LE(0xfeedfacf, 0);
  code.writeUInt32LE(0x01000007, 4);
  code.writeUInt32LE(1, 16);
  code.writeUInt32LE(16, 20);
  code.writeUInt32LE(0x1d, 32);
  code.writeUInt32LE(16, 36);
  code.writeUInt32LE(PAGE, 40);
  payload().copy(code, 64);
  const identifier = Buffer.from("pulumi-resource-voiceplatform\0");
  const directory = Buffer.alloc(44 + identifier.length + 32);
  directory.writeUInt32BE(0xfade0c02, 0);
  directory.writeUInt32BE(directory.length, 4);
  directory.writeUInt32BE(0x20400, 8);
  directory.writeUInt32BE(0x2, 12);
  directory.writeUInt32BE(44 + identifier.length, 16);
  directory.writeUInt32BE(44, 20);
  directory.writeUInt32BE(1, 28);
  directory.writeUInt32BE(PAGE, 32);
  directory.writeUInt8(32, 36);
  directory.writeUInt8(2, 37);
  directory.writeUInt8(12, 39);
  identifier.copy(directory, 44);
  code.writeUInt32LE(20 + directory.length, 44);
  createHash("sha256")
    .update(code)
    .digest()
    .copy(directory, 44 + identifier.length);
  const superblob = Buffer.alloc(20);
  superblob.writeUInt32BE(0xfade0cc0, 0);
  superblob.writeUInt32BE(20 + directory.length, 4);
  superblob.writeUInt32BE(1, 8);
  superblob.writeUInt32BE(20, 16);
  return Buffer.concat([code, superblob, directory]);
}

/** The message of what `check` throws, checked to be a ReleaseToolError naming the executable. */
function toolErrorOf(check: () => unknown): string {
  const thrown = thrownBy(check);
  expect(thrown).toBeInstanceOf(ReleaseToolError);
  expect((thrown as ReleaseToolError).tool).toBe("single executable");
  return (thrown as ReleaseToolError).message;
}

describe("checkSingleExecutable", () => {
  test("an ELF for the platform's architecture, with the blob and the fuse set, passes", () => {
    expect(checkSingleExecutable(elf(0x3e), "linux-amd64", BLOB)).toEqual({
      format: "ELF",
      architecture: "x86-64",
      fuse: true,
    });
    expect(checkSingleExecutable(elf(0xb7), "linux-arm64", BLOB).architecture).toBe("AArch64");
  });

  test("another architecture, a missing blob or an unset fuse fails, saying which", () => {
    const wrongMachine = toolErrorOf(() => checkSingleExecutable(elf(0xb7), "linux-amd64", BLOB));
    expect(wrongMachine).toContain("single executable for linux-amd64 is not usable");
    expect(wrongMachine).toContain("ELF for machine 0xb7");
    expect(wrongMachine).toContain("not ELF for x86-64");
    expect(() => checkSingleExecutable(elf(0x3e), "darwin-amd64", BLOB)).toThrow(
      "not Mach-O for x86_64",
    );
    expect(() =>
      checkSingleExecutable(elf(0x3e), "linux-amd64", Buffer.from("another blob")),
    ).toThrow("the bundle's blob is not in it");
    expect(() => checkSingleExecutable(elf(0x3e, payload("0")), "linux-amd64", BLOB)).toThrow(
      "its single-executable fuse is not set",
    );
  });

  test("a PE passes without a certificate table and fails with the old Authenticode signature", () => {
    expect(checkSingleExecutable(pe(0), "windows-amd64", BLOB)).toEqual({
      format: "PE",
      architecture: "AMD64",
      fuse: true,
      authenticode: false,
    });
    expect(() => checkSingleExecutable(pe(15688), "windows-amd64", BLOB)).toThrow(
      "Authenticode signature",
    );
  });

  test("a Mach-O passes when its ad-hoc signature matches every page, and fails after one byte changes", () => {
    const file = signedMachO();
    expect(checkSingleExecutable(file, "darwin-amd64", BLOB)).toEqual({
      format: "Mach-O",
      architecture: "x86_64",
      fuse: true,
      signedAs: "pulumi-resource-voiceplatform",
    });
    const changed = Buffer.from(file);
    changed.writeUInt8(changed.readUInt8(PAGE - 1) ^ 0xff, PAGE - 1);
    const changedPage = toolErrorOf(() => checkSingleExecutable(changed, "darwin-amd64", BLOB));
    expect(changedPage).toContain("page 0 does not match");
    expect(changedPage).toContain("code signature");
    const unsigned = Buffer.from(file.subarray(0, PAGE));
    unsigned.writeUInt32LE(0x19, 32);
    expect(() => checkSingleExecutable(unsigned, "darwin-amd64", BLOB)).toThrow(
      "it has no code signature",
    );
  });
});
