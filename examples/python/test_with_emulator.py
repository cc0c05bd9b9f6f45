"""The program against the package's platform emulator with the real `pulumi`, as CI runs it
(`pytest`): a preview sends the platform nothing, `pulumi up --yes` (its preview first) creates
each object once, and `pulumi preview --expect-no-changes` afterwards passes and sends nothing.
Needs `pulumi` and the package's command, `pulumi-voice-platform` (installed with the plugin), on
PATH. The stack lives in a temporary file backend; nothing reaches the real platform."""

import json
import os
import shutil
import subprocess
import tempfile
import urllib.request

import pytest

STACK = "emulator-check"
API_KEY = "emulator-check-key"
SIP_PASSWORD = "emulator-sip-password"
HERE = os.path.dirname(os.path.abspath(__file__))


class Emulator:
    """The emulator command in a child process, and what it has been sent."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["pulumi-voice-platform", "emulator", "--port", "0", "--api-key", API_KEY],
            stdout=subprocess.PIPE,
            text=True,
        )
        # It prints VOICEPLATFORM_BASE_URL=… and VOICEPLATFORM_CAMPAIGNS_BASE_URL=… once it listens.
        self.env = dict(self.process.stdout.readline().strip().split("=", 1) for _ in range(2))
        self.env["VOICEPLATFORM_API_KEY"] = API_KEY
        self.handed_out = 0

    def new_requests(self):
        """One line per request received since the last call, sorted."""
        url = self.env["VOICEPLATFORM_BASE_URL"] + "/__emulator/requests"
        with urllib.request.urlopen(url) as answer:
            log = json.load(answer)
        fresh, self.handed_out = log[self.handed_out :], len(log)
        return sorted(f"{r['method']} {r['path']} {r['status']}" for r in fresh)

    def stop(self) -> None:
        self.process.terminate()
        assert self.process.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def emulator():
    running = Emulator()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def pulumi(emulator):
    backend = tempfile.mkdtemp(prefix="voice-platform-state-")
    env = {
        **os.environ,
        **emulator.env,
        "PULUMI_BACKEND_URL": f"file://{backend}",
        "PULUMI_CONFIG_PASSPHRASE": "emulator-check",
        "PULUMI_SKIP_UPDATE_CHECK": "true",
    }

    def run(*args: str) -> str:
        done = subprocess.run(
            ["pulumi", *args, "--stack", STACK, "--non-interactive"],
            cwd=HERE,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"pulumi {' '.join(args)}:\n{done.stdout}{done.stderr}"
        return done.stdout + done.stderr

    subprocess.run(["pulumi", "stack", "init", STACK, "--non-interactive"], cwd=HERE, env=env, check=True)
    run("config", "set", "--secret", "sipPassword", SIP_PASSWORD)
    yield run
    shutil.rmtree(backend, ignore_errors=True)
    stack_file = os.path.join(HERE, f"Pulumi.{STACK}.yaml")
    if os.path.exists(stack_file):
        os.remove(stack_file)


def test_preview_sends_nothing_up_creates_each_object_once_a_second_preview_has_no_changes(
    emulator, pulumi
):
    pulumi("preview")
    assert emulator.new_requests() == []

    up = pulumi("up", "--yes")
    assert emulator.new_requests() == [
        "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 200",
        "POST /organization/sip 201",
        "POST /voices/voice-clone 200",
    ]
    assert SIP_PASSWORD not in up and API_KEY not in up

    # Exits non-zero if the program and the platform's objects disagree.
    pulumi("preview", "--expect-no-changes")
    assert emulator.new_requests() == []
