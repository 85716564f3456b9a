// The Go merchant sample (examples/merchant-go/, Go 1.19's standard library only), as a merchant runs it:
// its first script builds it into its bin/ folder, in a second or two with Debian's prebuilt standard library.
import { describeMerchantSample } from "./support/merchant-sample.ts";

describeMerchantSample({
  language: "Go",
  folder: "examples/merchant-go",
  toolchain: [["go", "version"]],
  packages: "golang-go",
});
