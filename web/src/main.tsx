import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './app/query-client.ts';
import { createRouter } from './app/router.tsx';
import { browserLanguage, setLanguage } from './ui/i18n.ts';
import './index.css';

// Until a session says the person's language, pages (sign-in, reset) speak the browser's.
setLanguage(browserLanguage());

const queryClient = createQueryClient();
const router = createRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
