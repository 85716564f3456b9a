// The Ruby merchant sample (examples/merchant-ruby/: WEBrick, Net::HTTP, OpenSSL), as a merchant runs it.
import { describeMerchantSample } from "./support/merchant-sample.ts";

describeMerchantSample({
  language: "Ruby",
  folder: "examples/merchant-ruby",
  // WEBrick left Ruby's standard library in 3.0: Debian has it as a package of its own.
  toolchain: [["ruby", "-e", "require 'webrick'"]],
  packages: "ruby ruby-webrick",
});
