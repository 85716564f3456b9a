// startSandbox() from the installed package, as a consumer's test setup calls it (plain
// JavaScript, so that any Node runs it): a counterparty, then the same one again.
import { startSandbox } from "payin-acceptance-contract/sandbox";

const sandbox = await startSandbox({ port: 0 }).catch((error) => {
  console.error(`${error.name} ${error.code}: ${error.message}`);
  process.exit(1);
});
const create = () =>
  fetch(`${sandbox.url}/api/v1/send/counterparties/`, {
    method: "POST",
    headers: { Authorization: "Bearer consumer", "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "INDIVIDUAL",
      payment_rail: "PAYIN",
      first_name: "Ana",
      last_name: "Li",
      email: "ana.li@example.com",
      phone_number: "+34600000001",
    }),
  });
const first = await create();
const counterparty = await first.json();
const second = await create();
const conflict = await second.json();
await sandbox.close();
console.log(
  JSON.stringify({ created: first.status, again: second.status, code: conflict.code, same: conflict.existing_id === counterparty.id }),
);
