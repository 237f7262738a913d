/** Questions and answers as an accordion, under a heading of the given level. */
import type { ReactNode } from 'react';
import { Accordion, AccordionDetails, AccordionSummary, Box, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

export default function Faq({ title, items }: { title: string; items: readonly FaqItem[] }) {
  return (
    <Box component="section" aria-labelledby="faq-title" sx={{ mt: 5 }}>
      <Typography id="faq-title" variant="h5" component="h2" sx={{ mb: 2 }}>{title}</Typography>
      {items.map((item) => (
        <Accordion key={item.id} disableGutters variant="outlined">
          <AccordionSummary expandIcon={<ExpandMoreIcon />} id={`faq-${item.id}`} aria-controls={`faq-${item.id}-answer`}>
            <Typography component="span" sx={{ fontWeight: 600 }}>{item.question}</Typography>
          </AccordionSummary>
          <AccordionDetails id={`faq-${item.id}-answer`}>
            <Typography component="div" color="text.secondary">{item.answer}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}
