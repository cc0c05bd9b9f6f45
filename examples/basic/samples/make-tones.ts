/**
 * Writes the two sample files this example clones a voice from: short sine tones as 16-bit mono
 * WAV at 8 kHz, a few KB each. Run with `npx tsx examples/basic/samples/make-tones.ts`; the
 * output is committed, so nobody needs to run it unless they want other tones.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

function tone(frequencyHz: number, seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const fade = Math.min(1, i / 200, (samples - i) / 200);
    data.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * frequencyHz * i) / sampleRate) * 12000 * fade),
      i * 2,
    );
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

writeFileSync(join(__dirname, "greeting.wav"), tone(440, 0.3));
writeFileSync(join(__dirname, "closing.wav"), tone(523.25, 0.25));
