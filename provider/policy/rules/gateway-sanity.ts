import { ipv4Address } from "../../core/input-rules";
import { knownProtocols } from "../../resources/sip-carrier";
import { knownList, knownString, resourcePolicy, stringList } from "../policy-args";

export const GATEWAY_SANITY = "gateway-sanity";

interface Config {
  readonly allowedProtocols?: readonly string[];
  readonly allowPrivateAddresses?: boolean;
}

/** Ranges the platform cannot reach a gateway in: private, shared, loopback, link-local, multicast and reserved. */
const UNREACHABLE_RANGES: readonly [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

function addressBits(address: string): number {
  return address.split(".").reduce((bits, octet) => bits * 256 + Number(octet), 0);
}

function unreachableRange(address: string): string | undefined {
  const bits = addressBits(address);
  const range = UNREACHABLE_RANGES.find(([base, length]) => {
    const size = 2 ** (32 - length);
    return Math.floor(bits / size) === Math.floor(addressBits(base) / size);
  });
  return range === undefined ? undefined : `${range[0]}/${range[1]}`;
}

/** The SIP port a transport listens on by convention: 5061 for TLS, 5060 otherwise. */
const conventionalPort = (protocol: string) => (protocol.startsWith("tls") ? 5061 : 5060);

type Gateway = Record<string, unknown>;

function gatewayProblems(gateway: Gateway, config: Config): string[] {
  const problems: string[] = [];
  const allowed = config.allowedProtocols ?? knownProtocols;
  const protocol = knownString(gateway.protocol) ?? "udp";
  if (!allowed.includes(protocol)) {
    problems.push(
      `protocol ${protocol} is not one of ${allowed.join(", ")}: use one, or list it in this rule's allowedProtocols`,
    );
  }
  const usual = conventionalPort(protocol);
  const otherTransports = usual === 5061 ? 5060 : 5061;
  if (gateway.port === otherTransports) {
    problems.push(
      `port ${otherTransports} is the port of the other transports: ${protocol} uses ${usual}`,
    );
  }
  if (gateway.useSipsScheme === true && !protocol.startsWith("tls")) {
    problems.push(
      `useSipsScheme needs a TLS transport, not ${protocol}: use tls, or drop useSipsScheme`,
    );
  }
  if (gateway.netmask === 0)
    problems.push(
      "netmask 0 matches every address on the internet: give the carrier's range, e.g. 32",
    );
  const address = knownString(gateway.ipv4);
  if (
    address !== undefined &&
    ipv4Address.safeParse(address).success &&
    !config.allowPrivateAddresses
  ) {
    const range = unreachableRange(address);
    if (range !== undefined) {
      problems.push(
        `ipv4 ${address} is in ${range}, which the platform cannot reach (allowPrivateAddresses permits it)`,
      );
    }
  }
  return problems;
}

export const gatewaySanity = resourcePolicy<Config>(
  {
    name: GATEWAY_SANITY,
    description:
      "A carrier's gateways can carry calls: a transport the platform knows, on its usual port, sips: only over TLS, an address the platform can reach, a netmask narrower than the whole internet, and no gateway listed twice.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        allowedProtocols: stringList("Transports a gateway may use.", knownProtocols),
        allowPrivateAddresses: {
          type: "boolean",
          description: "Allow gateways in private and other ranges the internet does not route.",
          default: false,
        },
      },
    },
  },
  ["SipCarrier"],
  ({ props }, config, report) => {
    const seen = new Map<string, number>();
    knownList(props.gateways).forEach((gateway, index) => {
      for (const problem of gatewayProblems(gateway, config))
        report(`gateways[${index}]: ${problem}`);
      const address = knownString(gateway.ipv4);
      if (address === undefined) return;
      const endpoint = `${address}:${typeof gateway.port === "number" ? gateway.port : 5060}`;
      const first = seen.get(endpoint);
      if (first !== undefined)
        report(`gateways[${index}] points at ${endpoint}, as gateways[${first}] does: remove one`);
      else seen.set(endpoint, index);
    });
  },
);
