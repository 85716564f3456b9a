// `payin-acceptance-contract/listen`: a hosted sandbox's webhooks on this machine (payin-listen).
export { listen, ListenRefused, type Listener, type ListenOptions } from "./listen.ts";
