/** The icon of each placeholder type (boxes, the side list and the type select). */
import type { SvgIconProps } from '@mui/material';
import TextFields from '@mui/icons-material/TextFields';
import Numbers from '@mui/icons-material/Numbers';
import Event from '@mui/icons-material/Event';
import Image from '@mui/icons-material/Image';
import QrCode2 from '@mui/icons-material/QrCode2';
import Draw from '@mui/icons-material/Draw';
import ViewAgenda from '@mui/icons-material/ViewAgenda';
import type { PlaceholderType } from '@sheaf/shared';

const ICONS: Record<PlaceholderType, typeof TextFields> = {
  text: TextFields,
  number: Numbers,
  date: Event,
  image: Image,
  qrcode: QrCode2,
  eSignature: Draw,
  multiple: ViewAgenda,
};

export function TypeIcon({ type, ...props }: { type: PlaceholderType } & SvgIconProps) {
  const Icon = ICONS[type];
  return <Icon fontSize="small" {...props} />;
}
