// The Python merchant sample (examples/merchant-python/, the standard library only), as a merchant runs it.
import { describeMerchantSample } from "./support/merchant-sample.ts";

describeMerchantSample({
  language: "Python",
  folder: "examples/merchant-python",
  toolchain: [["python3", "--version"]],
  packages: "python3",
});
