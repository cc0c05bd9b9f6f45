import {
  specialAssetSig,
  specialSecretSig,
  specialSigKey,
  unknownValue,
} from "@pulumi/pulumi/runtime";
import { ASSET_SIG, SECRET_SIG, SIG_KEY, UNKNOWN } from "../../provider/core/engine-values";

test("the protocol's markers are the ones @pulumi/pulumi sends", () => {
  expect({ UNKNOWN, SIG_KEY, ASSET_SIG, SECRET_SIG }).toEqual({
    UNKNOWN: unknownValue,
    SIG_KEY: specialSigKey,
    ASSET_SIG: specialAssetSig,
    SECRET_SIG: specialSecretSig,
  });
});
