// The qrcode package's encoder alone, without its PNG/terminal renderers (which load Node's fs).
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}
