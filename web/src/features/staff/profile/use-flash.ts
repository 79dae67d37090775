import { formatFullDateTime, formatListDateTime } from '@/lib/money.js';

/** The staff history's date: the format module's short form, 'dd MMM yyyy | HH:mm', in the viewer's time zone; '' for none. */
export const historyDate = (value: string | null | undefined): string => formatListDateTime(value);

/** The format module's long form, 'dd MMM yyyy, HH:mm:ss', in the viewer's time zone; '' for none. */
export const dateTime = (value: string | null | undefined): string => formatFullDateTime(value);
