/**
 * A `pulumi` run stopped at its deadline names the backend it waited on without asking `pulumi`
 * (`whoami` reads the backend too): the URL is found as the CLI finds it, and named by its kind
 * and host, never with a credential in it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configuredBackendUrl, describeBackend } from "../../../provider/cli/backends/backend-url";

let root: string;
let project: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "voiceplatform-backend-url-"));
  project = join(root, "project");
  home = join(root, "home");
  mkdirSync(project);
  mkdirSync(home);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the backend URL, as the CLI chooses it", () => {
  const projectFile = (backend: string) =>
    writeFileSync(
      join(project, "Pulumi.yaml"),
      `name: voice\nruntime: nodejs\n${backend}description: x\n`,
    );

  it("is PULUMI_BACKEND_URL, else the project's backend.url, else the login's current one", () => {
    writeFileSync(join(home, "credentials.json"), JSON.stringify({ current: "s3://from-login" }));
    projectFile("backend:\n  # the team's bucket\n  url: 's3://from-project?region=eu-west-1'\n");
    const env = { PULUMI_HOME: home };
    expect(configuredBackendUrl(project, { ...env, PULUMI_BACKEND_URL: "s3://from-env" })).toBe(
      "s3://from-env",
    );
    expect(configuredBackendUrl(project, env)).toBe("s3://from-project?region=eu-west-1");
    projectFile("");
    expect(configuredBackendUrl(project, env)).toBe("s3://from-login");
    expect(configuredBackendUrl(project, { PULUMI_HOME: join(root, "nowhere") })).toBeUndefined();
  });
});

describe("the backend, as a message names it", () => {
  it("names kind and host, never a password, key, token or user", () => {
    const cases: [string, string, NodeJS.ProcessEnv?][] = [
      [
        "postgres://ci:Pg-pass-w0rd@db.internal:6432/state?sslmode=verify-full",
        "the PostgreSQL server at db.internal:6432",
      ],
      [
        "s3://team-state/voice?endpoint=https%3A%2F%2Fkey-id%3As3-secret%40minio.internal%3A9000&region=eu-west-1",
        'the S3 bucket "team-state" at https://minio.internal:9000',
      ],
      [
        "s3://team-state?region=eu-west-1&profile=ci",
        'the S3 bucket "team-state" (region eu-west-1)',
      ],
      [
        "azblob://state?storage_account=teamacct",
        'the Azure Blob container "state" at https://teamacct.blob.core.windows.net',
        { AZURE_STORAGE_SAS_TOKEN: "sv=2024&sig=Azure-sas-S1g", AZURE_STORAGE_KEY: "Az-key-9" },
      ],
      ["file:///var/lib/pulumi-state", "the state folder /var/lib/pulumi-state"],
      ["gs://team-state/voice", 'the Google Cloud Storage bucket "team-state"'],
      [
        "https://ci-token@api.pulumi.com/path",
        "the Pulumi Cloud service at https://api.pulumi.com",
      ],
    ];
    for (const [url, named, env = {}] of cases) {
      const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
      Object.assign(process.env, env);
      try {
        const text = describeBackend(url);
        expect(text).toBe(named);
        for (const secret of ["Pg-pass-w0rd", "s3-secret", "key-id", "S1g", "Az-key-9", "ci-token"])
          expect(text).not.toContain(secret);
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    }
    expect(describeBackend(undefined)).toBe("the state backend `pulumi` is logged into");
  });

  it("names a URL the readers refuse by its kind only", () => {
    expect(describeBackend("s3://b?role=arn:aws:iam::1:role/x&secret=Sneaky-1")).toBe(
      "the state backend (s3://…)",
    );
  });
});
