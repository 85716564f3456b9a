// @ts-nocheck
// The AsyncAPI HTML template pulls in puppeteer; its browser download cannot work without
// network and the docs never need it (Chromium comes from Debian for the browser test).
module.exports = { skipDownload: true };
