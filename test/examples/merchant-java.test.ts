// The Java merchant sample (examples/merchant-java/, the JDK 17 only), as a merchant runs it: its
// first script compiles it with javac into its build/ folder, and each script then runs `java -cp build`.
import { describeMerchantSample } from "./support/merchant-sample.ts";

describeMerchantSample({
  language: "Java",
  folder: "examples/merchant-java",
  toolchain: [
    ["javac", "-version"],
    ["java", "-version"],
  ],
  packages: "openjdk-17-jdk-headless",
});
