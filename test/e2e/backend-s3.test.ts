import { describeBucketBackend } from "./backend-suite";

describeBucketBackend("s3");
