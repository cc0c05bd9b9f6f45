"""Unit tests of this program with the package's mocks (`pytest`): no engine, no plugin process,
no platform, no key. Each resource gets what `pulumi up` would store, with ids in the platform's
forms (pulumi_voiceplatform.testing)."""

import os
import runpy

import pulumi
from pulumi_voiceplatform.testing import ID_FORMATS, VoicePlatformMocks

PROJECT = "voice-platform-python"
HERE = os.path.dirname(os.path.abspath(__file__))


class RecordingMocks(VoicePlatformMocks):
    """The package's mocks, keeping the inputs of every resource the program declares."""

    def __init__(self) -> None:
        super().__init__()
        self.declared = {}

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        self.declared[args.name] = args
        return super().new_resource(args)


mocks = RecordingMocks()
pulumi.runtime.set_mocks(mocks, project=PROJECT, stack="test", preview=False)
pulumi.runtime.set_all_config(
    {f"{PROJECT}:sipPassword": "unit-test-sip-password", f"{PROJECT}:carrierPort": "5080"},
    [f"{PROJECT}:sipPassword"],
)
# Pulumi runs the program in its project folder: the sample files' paths are relative to it.
os.chdir(HERE)
program = runpy.run_path(os.path.join(HERE, "__main__.py"))


@pulumi.runtime.test
def test_the_stacks_outputs_are_the_platforms_ids():
    def check(ids):
        voice_id, carrier_id, webhook_id = ids
        assert ID_FORMATS["provider_voice_id"].fullmatch(voice_id)
        assert ID_FORMATS["object_id"].fullmatch(carrier_id)
        assert webhook_id.startswith("65a1f0c2e4b0a1b2c3d4e5f6/")

    return pulumi.Output.all(
        program["voice"].voice_id, program["carrier"].id, program["webhook"].id
    ).apply(check)


@pulumi.runtime.test
def test_one_resource_of_each_kind_and_nothing_adopted_unless_asked():
    def check(_):
        kinds = sorted(args.typ for args in mocks.declared.values())
        assert kinds == [
            "voiceplatform:index:CampaignWebhook",
            "voiceplatform:index:SipCarrier",
            "voiceplatform:index:Voice",
        ]
        assert "adopted-trunk" not in mocks.declared

    return pulumi.Output.all(program["carrier"].id, program["webhook"].id).apply(check)


@pulumi.runtime.test
def test_the_gateway_takes_its_port_from_config_and_the_password_stays_secret():
    def check(secret):
        gateways = mocks.declared["main-trunk"].inputs["gateways"]
        assert [gateway["port"] for gateway in gateways] == [5080]
        assert secret is True

    password = program["carrier"].register_password
    return pulumi.Output.from_input(password.is_secret()).apply(check)


@pulumi.runtime.test
def test_the_webhook_calls_an_https_address():
    def check(url):
        assert url.startswith("https://")

    return program["webhook"].url.apply(check)
