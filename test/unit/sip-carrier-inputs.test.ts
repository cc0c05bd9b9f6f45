import { UNKNOWN } from "../../provider/core/engine-values";
import { resetProcessState } from "../../provider/settings/process-state";
import { sipCarrier, SipCarrierInputs, toCarrierBody } from "../../provider/resources/sip-carrier";
import { carrierInputs, gateway } from "../support/builders";
import { callContext } from "../support/call-context";

const { check, diff } = sipCarrier;

afterEach(resetProcessState);

describe("SipCarrier check", () => {
  it("accepts valid inputs and sorts gateways and numbers into sets", async () => {
    const second = gateway({ ipv4: "198.51.100.7", inbound: false });
    const { inputs, failures } = await check(
      callContext(),
      {},
      carrierInputs({
        gateways: [gateway(), second],
        phoneNumbers: [{ phoneNumber: "+2" }, { phoneNumber: "+1" }],
      }),
    );
    expect(failures).toEqual([]);
    expect(inputs.gateways).toEqual([second, gateway()]);
    expect(inputs.phoneNumbers).toEqual([{ phoneNumber: "+1" }, { phoneNumber: "+2" }]);
  });

  it.each([
    [
      "gateways[0].ipv4",
      { gateways: [gateway({ ipv4: "sip.example.com" })] },
      'must be a literal IPv4 address for an inbound gateway, such as 203.0.113.10, not "sip.example.com"',
    ],
    [
      "gateways[0].ipv4",
      { gateways: [gateway({ ipv4: "not an address" })] },
      "must be a hostname or an IPv4 address such as sip.example.com or 203.0.113.10",
    ],
    [
      "gateways[0].netmask",
      { gateways: [gateway({ netmask: 33 })] },
      "must be at most 32, not number 33",
    ],
    [
      "gateways[0].netmask",
      { gateways: [gateway({ netmask: 24.5 })] },
      "must be a whole number, not number 24.5",
    ],
    ["gateways[0].port", { gateways: [gateway({ port: 0 })] }, "must be at least 1, not number 0"],
    [
      "gateways[0].port",
      { gateways: [gateway({ port: 70000 })] },
      "must be at most 65535, not number 70000",
    ],
    [
      "gateways[0].send_options_ping",
      { gateways: [gateway({ send_options_ping: true })] },
      'is not an input of gateways[0] of SipCarrier (did you mean "sendOptionsPing"?); remove it or fix its name',
    ],
    [
      "phoneNumbers[0].phoneNumber",
      { phoneNumbers: [{}] },
      "is missing: give the number (phoneNumber, e.g. +14155550100), or phoneNumberSid for one the platform already knows",
    ],
    [
      "gateways[0].ipv4",
      { gateways: [{ outbound: true, port: 5060 }] },
      "is missing: give the gateway's address (ipv4), or sipGatewaySid for one the platform already knows",
    ],
    ["requiresRegister", { requiresRegister: "true" }, 'must be true or false, not "true"'],
    ["name", { name: undefined }, "is required: set it to a string"],
  ])("reports %s", async (property, overrides, reason) => {
    const { failures } = await check(callContext(), {}, carrierInputs(overrides));
    expect(failures).toContainEqual({ property, reason });
  });

  it("accepts a number given by its SID alone and a gateway by its SID alone: the spec requires neither field", async () => {
    const { failures } = await check(
      callContext(),
      {},
      carrierInputs({
        phoneNumbers: [{ phoneNumberSid: "PN0123" }],
        gateways: [{ outbound: true, sipGatewaySid: "GW0123" }],
      }),
    );
    expect(failures).toEqual([]);
  });

  it("accepts a hostname for an outbound-only gateway", async () => {
    const { failures } = await check(
      callContext(),
      {},
      carrierInputs({ gateways: [gateway({ inbound: false, ipv4: "sip.example.com" })] }),
    );
    expect(failures).toEqual([]);
  });

  it("lets preview's unknown values through", async () => {
    const { failures } = await check(
      callContext(),
      {},
      carrierInputs({ registerPassword: UNKNOWN, gateways: [gateway({ ipv4: UNKNOWN })] }),
    );
    expect(failures).toEqual([]);
  });
});

describe("SipCarrier wire mapping", () => {
  it("maps to the spec's body: snake_case, except phoneNumbers and updatedBy", () => {
    const inputs = SipCarrierInputs.parse(
      carrierInputs({
        registerSipRealm: "sip.example.com",
        registerFromUser: "from",
        registerFromDomain: "example.com",
        registerPublicIpInContact: true,
        techPrefix: "99",
        diversion: "+14155550000",
        e164LeadingPlus: true,
        outboundSipProxy: "proxy.example.com",
        updatedBy: "platform-team",
        gateways: [
          gateway({
            sendOptionsPing: true,
            useSipsScheme: false,
            padCrypto: true,
            sipGatewaySid: "gw1",
          }),
        ],
        phoneNumbers: [{ phoneNumber: "+14155550100", phoneNumberSid: "pn1" }],
      }),
    );
    expect(toCarrierBody(inputs)).toEqual({
      name: "main-trunk",
      register_username: "trunk-user",
      register_password: "s3cret-sip-password",
      requires_register: true,
      register_sip_realm: "sip.example.com",
      register_from_user: "from",
      register_from_domain: "example.com",
      register_public_ip_in_contact: true,
      tech_prefix: "99",
      diversion: "+14155550000",
      e164_leading_plus: true,
      gateways: [
        {
          outbound: true,
          inbound: true,
          ipv4: "203.0.113.10",
          netmask: 32,
          port: 5060,
          protocol: "udp",
          send_options_ping: true,
          use_sips_scheme: false,
          pad_crypto: true,
          sip_gateway_sid: "gw1",
        },
      ],
      phoneNumbers: [{ phone_number_sid: "pn1", phone_number: "+14155550100" }],
      outbound_sip_proxy: "proxy.example.com",
      updatedBy: "platform-team",
    });
  });

  it("sends nothing the user did not declare", () => {
    expect(toCarrierBody({ name: "bare" })).toEqual({ name: "bare" });
  });
});

describe("SipCarrier diff", () => {
  const stored = async (overrides = {}) => ({
    ...(await check(callContext(), {}, carrierInputs(overrides))).inputs,
    carrierId: "c1",
  });
  const news = async (overrides = {}) =>
    (await check(callContext(), {}, carrierInputs(overrides))).inputs;

  it("sees no change when gateways and numbers are reordered", async () => {
    const a = gateway();
    const b = gateway({ ipv4: "198.51.100.7", inbound: false });
    const olds = await stored({ gateways: [a, b] });
    expect((await diff(callContext(), "c1", olds, await news({ gateways: [b, a] }))).changes).toBe(
      false,
    );
  });

  it("replaces on any change, since the API has no update", async () => {
    const olds = await stored();
    expect(await diff(callContext(), "c1", olds, await news({ name: "renamed" }))).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
      diffs: ["name"],
      detailedDiff: { name: { kind: "update", replace: true } },
    });
    // A secret is named, its value never: the engine shows `[diff: ~registerPassword]`.
    const rotated = await diff(
      callContext(),
      "c1",
      olds,
      await news({ registerPassword: "rotated-password" }),
    );
    expect(rotated.replaces).toEqual(["registerPassword"]);
    expect(rotated.detailedDiff).toEqual({ registerPassword: { kind: "update", replace: true } });
    expect(JSON.stringify(rotated)).not.toContain("rotated-password");
    expect(
      (await diff(callContext(), "c1", olds, await news({ gateways: [gateway({ port: 5080 })] })))
        .replaces,
    ).toEqual(["gateways"]);
  });
});

describe("SipCarrier warnings", () => {
  it("warns, without failing, on rules that only jambonz's model suggests", async () => {
    const warnSpy = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const { failures } = await check(
        callContext(),
        {},
        carrierInputs({
          name: "warn-trunk",
          registerPassword: "",
          registerSipRealm: "sip:realm.example.com",
          gateways: [gateway({ protocol: "sctp" }), gateway({ inbound: false })],
          phoneNumbers: [{ phoneNumber: "555-0100" }],
        }),
      );
      expect(failures).toEqual([]);
      const said = warnSpy.mock.calls.map(([text]) => String(text));
      expect(said).toEqual(
        expect.arrayContaining([
          expect.stringContaining(
            "requiresRegister is true but registerUsername or registerPassword is empty",
          ),
          expect.stringContaining('registerSipRealm starts with "sip:"'),
          expect.stringContaining(
            'gateways[0].protocol "sctp" is not one of udp, tcp, tls, tls/srtp',
          ),
          expect.stringContaining("two gateways point at 203.0.113.10:5060"),
          expect.stringContaining('phoneNumbers[0].phoneNumber "555-0100" is not in E.164 form'),
        ]),
      );
    } finally {
      warnSpy.mockRestore();
    }
  });
});
