export { qrCodeOperators, type QrBox, type QrErrorCorrection, type QrOptions } from './qrCodeOperators.ts';
