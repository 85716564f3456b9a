// The PHP merchant sample (examples/merchant-php/: php -S with four workers, stream contexts, state in files under
// flock), as a merchant runs it.
import { describeMerchantSample } from "./support/merchant-sample.ts";

describeMerchantSample({
  language: "PHP",
  folder: "examples/merchant-php",
  toolchain: [["php", "--version"]],
  packages: "php-cli",
});
