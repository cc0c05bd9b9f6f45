import { describeBucketBackend } from "./backend-suite";

describeBucketBackend("azblob");
