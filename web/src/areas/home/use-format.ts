/**
 * The person's formatter (app/format.ts: their language, date pattern and duration style,
 * and the workspace's time zone). Areas may import only ui/ and api/, so the home page
 * reaches it through this one line until useFormat moves to a layer they may import.
 */
// eslint-disable-next-line web/layers -- useFormat lives in app/; the one crossing of this area, asked to be moved
export { useFormat } from '../../app/format.ts';
